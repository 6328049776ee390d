/**
 * The environment a Bash command inherits: the daemon's, less the daemon's own credentials. The
 * OpenTelemetry exporter's headers and client key (`OTEL_EXPORTER_OTLP_HEADERS`, per signal too)
 * carry the operator's telemetry token; the sandbox hides the daemon's state and config files, and
 * a command must not read the same kind of secret from its environment (`env`, `$VAR`).
 */
const DAEMON_SECRETS = /^OTEL_EXPORTER_OTLP(_(TRACES|METRICS|LOGS))?_(HEADERS|CLIENT_KEY)$/;

export function commandEnvironment(base: NodeJS.ProcessEnv, extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(base)) if (value !== undefined && !DAEMON_SECRETS.test(key)) env[key] = value;
  return { ...env, ...extra };
}
