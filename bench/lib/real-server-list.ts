/**
 * The popular MCP servers from npm that bench/capture-mcp-catalogs.ts tries, with the dummy
 * credentials each needs to start. Nothing here is a real secret; servers that insist on a valid
 * one are skipped by the capture and say why in the data file.
 */
export interface RealServerSpec {
  /** The server's name in the pool (`mcp__<server>__tool`). */
  server: string;
  package: string;
  args?: string[];
  env?: Record<string, string>;
  /** File to run inside the package when its `bin` is not the server. */
  entry?: string;
  /** Files written into the server's folder ($TMP) before it starts: dummy credential files. */
  files?: Record<string, string>;
}

const DUMMY = "dummy-token-for-tools-list";

export const REAL_SERVERS: readonly RealServerSpec[] = [
  { server: "filesystem", package: "@modelcontextprotocol/server-filesystem", args: ["$TMP"] },
  { server: "memory", package: "@modelcontextprotocol/server-memory" },
  { server: "everything", package: "@modelcontextprotocol/server-everything", args: ["stdio"] },
  { server: "sequential-thinking", package: "@modelcontextprotocol/server-sequential-thinking" },
  { server: "github", package: "@modelcontextprotocol/server-github", env: { GITHUB_PERSONAL_ACCESS_TOKEN: DUMMY } },
  {
    server: "gitlab",
    package: "@modelcontextprotocol/server-gitlab",
    env: { GITLAB_PERSONAL_ACCESS_TOKEN: DUMMY, GITLAB_API_URL: "http://127.0.0.1:9/api/v4" },
  },
  { server: "slack", package: "@modelcontextprotocol/server-slack", env: { SLACK_BOT_TOKEN: "xoxb-" + DUMMY, SLACK_TEAM_ID: "T000" } },
  { server: "google-maps", package: "@modelcontextprotocol/server-google-maps", env: { GOOGLE_MAPS_API_KEY: DUMMY } },
  { server: "brave-search", package: "@modelcontextprotocol/server-brave-search", env: { BRAVE_API_KEY: DUMMY } },
  { server: "puppeteer", package: "@modelcontextprotocol/server-puppeteer" },
  { server: "postgres", package: "@modelcontextprotocol/server-postgres", args: ["postgresql://127.0.0.1:9/none"] },
  { server: "playwright", package: "@playwright/mcp" },
  { server: "chrome-devtools", package: "chrome-devtools-mcp" },
  { server: "mongodb", package: "mongodb-mcp-server", env: { MDB_MCP_TELEMETRY: "disabled" } },
  { server: "notion", package: "@notionhq/notion-mcp-server", env: { NOTION_TOKEN: DUMMY } },
  { server: "sentry", package: "@sentry/mcp-server", args: ["--access-token=" + DUMMY] },
  { server: "circleci", package: "@circleci/mcp-server-circleci", env: { CIRCLECI_TOKEN: DUMMY } },
  { server: "azure-devops", package: "@azure-devops/mcp", args: ["contoso"] },
  { server: "hubspot", package: "@hubspot/mcp-server", env: { PRIVATE_APP_ACCESS_TOKEN: DUMMY } },
  { server: "shortcut", package: "@shortcut/mcp", env: { SHORTCUT_API_TOKEN: DUMMY } },
  { server: "launchdarkly", package: "@launchdarkly/mcp-server", args: ["start", "--api-key", DUMMY] },
  {
    server: "google-calendar",
    package: "@cocal/google-calendar-mcp",
    env: { GOOGLE_OAUTH_CREDENTIALS: "$TMP/gcp-oauth.keys.json", GOOGLE_CALENDAR_MCP_TOKEN_PATH: "$TMP/tokens.json" },
    files: {
      "gcp-oauth.keys.json": JSON.stringify({ installed: { client_id: "dummy.apps.googleusercontent.com", client_secret: DUMMY, redirect_uris: ["http://127.0.0.1"] } }),
      "tokens.json": JSON.stringify({ normal: { access_token: DUMMY, refresh_token: DUMMY, expiry_date: 4102444800000, token_type: "Bearer" } }),
    },
  },
  { server: "desktop-commander", package: "@wonderwhy-er/desktop-commander" },
  { server: "context7", package: "@upstash/context7-mcp" },
  { server: "firecrawl", package: "firecrawl-mcp", env: { FIRECRAWL_API_KEY: "fc-" + DUMMY } },
  { server: "supabase", package: "@supabase/mcp-server-supabase", args: ["--access-token=" + DUMMY] },
  { server: "stripe", package: "@stripe/mcp", args: ["--tools=all", "--api-key=sk_test_" + DUMMY] },
  { server: "tavily", package: "tavily-mcp", env: { TAVILY_API_KEY: "tvly-" + DUMMY } },
  { server: "exa", package: "exa-mcp-server", env: { EXA_API_KEY: DUMMY } },
  { server: "heroku", package: "@heroku/mcp-server", env: { HEROKU_API_KEY: DUMMY } },
  { server: "kubernetes", package: "mcp-server-kubernetes" },
  { server: "datadog", package: "@winor30/mcp-server-datadog", env: { DATADOG_API_KEY: DUMMY, DATADOG_APP_KEY: DUMMY } },
  { server: "airtable", package: "airtable-mcp-server", env: { AIRTABLE_API_KEY: DUMMY } },
  { server: "linear", package: "linear-mcp-server", env: { LINEAR_API_KEY: DUMMY } },
  { server: "mysql", package: "@benborla29/mcp-server-mysql", env: { MYSQL_HOST: "127.0.0.1", MYSQL_PORT: "9", MYSQL_USER: "x", MYSQL_PASS: "x", MYSQL_DB: "x" } },
  { server: "elasticsearch", package: "@elastic/mcp-server-elasticsearch", env: { ES_URL: "http://127.0.0.1:9", ES_API_KEY: DUMMY } },
];
