import { KEY_LIKE_RUNS } from '../common/key-like';

const LOGGED_QUERY_PARAMETERS = new Set(['limit', 'cursor', 'appName', 'clientId', 'action']);
const SAFE_NAME = /^[A-Za-z0-9_.-]{1,32}$/;
const REDACTED = '[redacted]';

// Every route of the service is under 40 characters, so such paths are logged without a look.
export function loggedUrl(url: string): string {
  const queryStart = url.indexOf('?');
  const path = queryStart === -1 ? url : url.slice(0, queryStart);
  const shownPath = path.length < 40 ? path : path.replace(KEY_LIKE_RUNS, REDACTED);
  return queryStart === -1 ? shownPath : `${shownPath}?${loggedQuery(url.slice(queryStart + 1))}`;
}

function loggedQuery(query: string): string {
  const shown: string[] = [];
  for (const [name, value] of new URLSearchParams(query)) {
    if (LOGGED_QUERY_PARAMETERS.has(name)) shown.push(`${name}=${encodeURIComponent(value.replace(KEY_LIKE_RUNS, REDACTED))}`);
    else shown.push(`${SAFE_NAME.test(name) ? name : REDACTED}=${REDACTED}`);
  }
  return shown.join('&');
}
