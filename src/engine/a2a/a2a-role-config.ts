/**
 * `a2a_url` and `a2a_auth_env` in a role file's front matter: the role runs on a remote A2A agent (kagent on
 * Kubernetes, or any A2A server) instead of a local model. Read strictly, like `mcpServers`: a value that
 * cannot work is an error naming the field. A token never goes in a role file (files are committed and
 * shared); the role names the environment variable that holds it, and a field that looks like a literal
 * token is rejected without repeating its value.
 */

/** Where a remote role runs and how it authenticates. */
export interface A2aRemote {
  /** The agent's base address; its agent card is read from `<url>/.well-known/agent-card.json`. */
  url: string;
  /** The environment variable whose value is sent as `Authorization: Bearer <value>`. Default: no header. */
  authEnv?: string;
}

export interface A2aRoleReading {
  remote?: A2aRemote;
  /** Each problem with the field it is about, for a file:line diagnostic. */
  problems: Array<{ field: string; message: string }>;
  /** Fields that mean nothing for a remote role (its agent has its own model and tools). */
  ignored: string[];
}

/** The front-matter fields of a remote role, for the role file format's list of known fields. */
export const a2aRoleFields = ['a2a_url', 'a2a_auth_env'] as const;

/** Fields someone might write to put the credential itself in the file: always refused. */
const literalTokenFields = ['a2a_token', 'a2a_auth_token', 'a2a_api_key', 'a2a_auth', 'a2a_headers', 'a2a_authorization', 'a2a_bearer'];

/** A variable name as shells write them. A value with spaces or a `Bearer ` prefix is a token, not a name. */
const variableName = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;

/**
 * The model providers' keys: a role file (which a cloned repository can bring) must not be able to send
 * them to an address of its choosing.
 */
const providerKeyVariables = new Set(['ANTHROPIC_API_KEY', 'OPENAI_API_KEY']);

/** Local-only fields a remote role ignores, warned about so nobody expects them to apply. */
const localOnlyFields = ['tools', 'disallowedTools', 'model', 'fallbackModels', 'max_turns', 'maxTurns', 'mcpServers'];

export function readA2aRole(fields: Readonly<Record<string, unknown>>): A2aRoleReading {
  const problems: A2aRoleReading['problems'] = [];
  for (const field of literalTokenFields) {
    if (fields[field] !== undefined) {
      problems.push({
        field,
        message: `'${field}' would put a credential in the role file, which is shared with everyone who has the repository: remove it, keep the token in an environment variable and name that variable with 'a2a_auth_env' (e.g. a2a_auth_env: KAGENT_TOKEN)`,
      });
    }
  }
  const url = fields.a2a_url;
  const authEnv = fields.a2a_auth_env;
  if (url === undefined || url === null) {
    if (authEnv !== undefined && authEnv !== null)
      problems.push({
        field: 'a2a_auth_env',
        message: "'a2a_auth_env' needs 'a2a_url': the address of the remote agent it authenticates to",
      });
    return { problems, ignored: [] };
  }
  const remote: A2aRemote = { url: '' };
  const urlProblem = checkUrl(url);
  if (urlProblem) problems.push({ field: 'a2a_url', message: urlProblem });
  else remote.url = String(url).trim();
  if (authEnv !== undefined && authEnv !== null) {
    const envProblem = checkAuthEnv(authEnv);
    if (envProblem) problems.push({ field: 'a2a_auth_env', message: envProblem });
    else remote.authEnv = String(authEnv).trim();
  }
  const ignored = localOnlyFields.filter((field) => fields[field] !== undefined && fields[field] !== null);
  if (fields.mode !== undefined && fields.mode !== null && fields.mode !== 'single_turn') ignored.push('mode');
  return problems.length > 0 ? { problems, ignored } : { remote, problems, ignored };
}

function checkUrl(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.trim() === '')
    return "'a2a_url' must be the http(s) address of an A2A agent, e.g. http://127.0.0.1:8083/api/a2a/kagent/k8s-agent/";
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return "'a2a_url' is not a valid address: write it as http(s)://host[:port]/path";
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return `'a2a_url' must use http or https, not ${url.protocol.replace(/:$/, '')}`;
  // Credentials in the address would be committed with the file and shown wherever the address is.
  if (url.username !== '' || url.password !== '')
    return "'a2a_url' must not carry a user name or password: name an environment variable with 'a2a_auth_env' instead";
  if ([...url.searchParams.keys()].some((key) => /token|key|secret|password|auth|sig/i.test(key))) {
    return "'a2a_url' must not carry a credential in its query: name an environment variable with 'a2a_auth_env' instead";
  }
  return undefined;
}

function checkAuthEnv(value: unknown): string | undefined {
  // The value is never repeated: if it is a token by mistake, the diagnostic must not print it.
  if (typeof value !== 'string' || !variableName.test(value.trim())) {
    return "'a2a_auth_env' must be the name of an environment variable that holds the token (letters, digits and '_', e.g. KAGENT_TOKEN), never the token itself";
  }
  if (providerKeyVariables.has(value.trim()))
    return `'a2a_auth_env' may not name ${value.trim()}: the model provider's key is never sent to a remote agent`;
  return undefined;
}
