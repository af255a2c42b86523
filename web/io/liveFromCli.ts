import type { AppServices } from '../startApp.ts';

/**
 * `hookwire ui --live <server>` opens the app at `/#live=<server>&token=<token>`: the debugger connects to that
 * `hookwire serve` at once (debugger/liveSession.ts). The fragment never reaches a server, and it is removed
 * from the address bar before anything else, so the token does not stay in the history.
 */
export function liveFromCli({ store, live }: Pick<AppServices, 'store' | 'live'>): void {
  const m = /^#live=([^&]{1,200})&token=([A-Za-z0-9_-]{16,200})$/.exec(location.hash);
  if (!m) return;
  history.replaceState(null, '', location.pathname + location.search);
  let server: string;
  try {
    server = decodeURIComponent(m[1]!);
  } catch {
    return;
  }
  store.getState().setMode('debug');
  void live.connect(server, m[2]!);
}
