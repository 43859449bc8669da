import { AppConfig } from './config/app-config';
import { ConfigurationError } from './config/environment';
import { driverErrorCode, isUnavailableError } from './common/errors/unavailable';

export function describeStartupFailure(error: unknown, config?: AppConfig): string {
  if (error instanceof ConfigurationError) return error.message;
  const code = driverErrorCode(error) ?? (error as { code?: unknown } | null)?.code;
  if (config && (code === 'EADDRINUSE' || code === 'EACCES')) {
    return `Cannot start: cannot listen on ${config.host}:${config.port} (${String(code)})`;
  }
  const reason = error instanceof Error ? error.message : String(error);
  if (config && isUnavailableError(error)) return `Cannot start: the database at ${databaseLocation(config)} is unreachable (${reason})`;
  return `Cannot start: ${reason}`;
}

// Never the credentials of the URL.
function databaseLocation({ database }: AppConfig): string {
  if (database.type === 'sqlite') return database.path;
  const url = new URL(database.url);
  return `${url.host}${url.pathname}`;
}
