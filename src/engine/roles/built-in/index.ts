import { type RoleDefinition } from '../types.js';
import { refactorerRole } from './refactorer.js';
import { researcherRole } from './researcher.js';
import { reviewerRole } from './reviewer.js';

export { refactorerRole, researcherRole, reviewerRole };

/** The roster every workspace starts with, in the order it is shown. */
export const builtInRoles: readonly RoleDefinition[] = [researcherRole, reviewerRole, refactorerRole];
