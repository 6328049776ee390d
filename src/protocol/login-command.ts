/** The command a user runs to log in to an MCP server that waits for OAuth: one spelling everywhere it is shown. */
export function loginCommand(server: string): string {
  return `toolpool auth login ${server}`;
}
