/**
 * Outbound connections behind an organisation's proxy: Microsoft Graph, Entra ID sign-in, the token
 * endpoint and the email server go through HTTPS_PROXY (or HTTP_PROXY for plain http) unless NO_PROXY
 * names the host, and trust the certificate authorities in OUTBOUND_CA_FILE besides the system's
 * (a TLS-inspecting proxy's own CA). Every HTTP call the portal makes uses Node's fetch, so one
 * dispatcher installed for the process covers them all; email passes the proxy to nodemailer.
 */
import { rootCertificates } from 'node:tls';
import { type Dispatcher, EnvHttpProxyAgent, getGlobalDispatcher, setGlobalDispatcher } from 'undici';
import type { Config } from './config';

export type OutboundSettings = Pick<Config, 'HTTPS_PROXY' | 'HTTP_PROXY' | 'NO_PROXY' | 'OUTBOUND_CA'>;

/** The system's certificate authorities and the extra ones (a `ca` option replaces the defaults). */
export function trustedAuthorities(extra: string | undefined): string[] | undefined {
  return extra ? [...rootCertificates, extra] : undefined;
}

/** The dispatcher fetch should use, or null when nothing is configured (Node's own then serves). */
export function outboundDispatcher(settings: OutboundSettings): Dispatcher | null {
  const { HTTPS_PROXY, HTTP_PROXY, NO_PROXY, OUTBOUND_CA } = settings;
  if (!HTTPS_PROXY && !HTTP_PROXY && !OUTBOUND_CA) return null;
  const ca = trustedAuthorities(OUTBOUND_CA);
  const tls = ca ? { ca } : {};
  return new EnvHttpProxyAgent({
    // empty strings, not undefined: undefined would make undici read the process's environment
    httpProxy: HTTP_PROXY ?? '',
    httpsProxy: HTTPS_PROXY ?? HTTP_PROXY ?? '',
    noProxy: NO_PROXY ?? '',
    // a direct connection, the connection to the proxy, and the origin's TLS inside the tunnel
    connect: tls,
    proxyTls: tls,
    requestTls: tls,
  });
}

/**
 * Routes this process's fetch calls through the configured proxy and CAs; returns what puts the
 * previous dispatcher back (tests). Process-wide: call it once, where the process starts.
 */
export function installOutboundSettings(settings: OutboundSettings): () => void {
  const dispatcher = outboundDispatcher(settings);
  if (!dispatcher) return () => {};
  const previous = getGlobalDispatcher();
  setGlobalDispatcher(dispatcher);
  return () => {
    setGlobalDispatcher(previous);
    void dispatcher.close();
  };
}

/**
 * The proxy a plain TCP connection (email) to `host` goes through: HTTPS_PROXY (HTTP_PROXY when only
 * that is set), unless NO_PROXY names the host. NO_PROXY is read as curl and undici read it: `*` for
 * every host, otherwise names and addresses separated by commas or spaces, each matching itself and
 * its subdomains (a leading `.` or `*.` is ignored), with an optional `:port`.
 */
export function proxyFor(host: string, port: number, settings: OutboundSettings): string | null {
  const proxy = settings.HTTPS_PROXY ?? settings.HTTP_PROXY;
  if (!proxy) return null;
  const name = host.toLowerCase().replace(/^\[|\]$/g, '');
  for (const entry of (settings.NO_PROXY ?? '').split(/[\s,]+/).filter(Boolean)) {
    if (entry === '*') return null;
    const text = entry.toLowerCase().replace(/^\*?\./, '');
    // `[::1]:25`, `::1` (an IPv6 address has no port unless bracketed), `example.org:25`
    const match = text.startsWith('[')
      ? /^\[([^\]]*)\](?::(\d+))?$/.exec(text)
      : text.split(':').length > 2
        ? [text, text, undefined]
        : /^([^:]*)(?::(\d+))?$/.exec(text);
    const entryHost = match?.[1] ?? '';
    const entryPort = match?.[2];
    if (entryPort && Number(entryPort) !== port) continue;
    if (name === entryHost || name.endsWith(`.${entryHost}`)) return null;
  }
  return proxy;
}
