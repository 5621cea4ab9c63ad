/** The CLI's exit codes (a public contract). */
export const exitCodes = Object.freeze({
  completed: 0,
  failed: 1,
  usage: 2,
  interrupted: 130,
});
