/**
 * This device's push subscription, through the service worker's PushManager. The service worker is
 * the installable app's (registered at start); without one, push is not available on this page.
 */

/** A reason this device cannot be subscribed, in words for the person: shown as it is. */
export class PushDeviceError extends Error {
  override name = 'PushDeviceError';
}

export type PushSupport = 'supported' | 'unsupported' | 'ios-needs-home-screen';

/** iPhone and iPad (iPadOS presents itself as a Mac with touch). */
export function isAppleMobile(nav: Navigator = navigator): boolean {
  return (
    /iPhone|iPad|iPod/.test(nav.userAgent) || (/Macintosh/.test(nav.userAgent) && nav.maxTouchPoints > 1)
  );
}

/** Opened from the Home Screen (an installed web app), not in a browser tab. */
export function isStandalone(): boolean {
  return (
    window.matchMedia?.('(display-mode: standalone)').matches === true ||
    (navigator as Navigator & { standalone?: boolean }).standalone === true
  );
}

export function pushSupport(): PushSupport {
  if (isAppleMobile() && !isStandalone()) return 'ios-needs-home-screen';
  if (!('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window))
    return 'unsupported';
  return 'supported';
}

async function registration(): Promise<ServiceWorkerRegistration | null> {
  return (await navigator.serviceWorker.getRegistration()) ?? null;
}

export async function currentSubscription(): Promise<PushSubscription | null> {
  if (pushSupport() !== 'supported') return null;
  return (await (await registration())?.pushManager.getSubscription()) ?? null;
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

const sameKey = (a: ArrayBuffer | null, b: Uint8Array) =>
  a !== null && a.byteLength === b.byteLength && new Uint8Array(a).every((byte, i) => byte === b[i]);

/**
 * Subscribe this device with the portal's key. A subscription made with another key (the key was
 * changed) is ended first, and named as the one this replaces.
 */
export async function subscribeDevice(
  publicKey: string,
): Promise<{ subscription: PushSubscription; replaces?: string }> {
  const reg = await registration();
  if (!reg)
    throw new PushDeviceError('Notifications are not available on this page yet. Reload it and try again.');
  if ((await Notification.requestPermission()) !== 'granted')
    throw new PushDeviceError(
      "Notifications are blocked for this site. Allow them in the browser's settings first.",
    );
  const key = keyBytes(publicKey);
  const existing = await reg.pushManager.getSubscription();
  let replaces: string | undefined;
  if (existing && !sameKey(existing.options.applicationServerKey, key)) {
    replaces = existing.endpoint;
    await existing.unsubscribe();
  }
  const subscription = existing && !replaces ? existing : await subscribeWith(reg, key);
  return { subscription, ...(replaces ? { replaces } : {}) };
}

/**
 * The browser's push service registers the device. A browser without one (some builds of Chromium,
 * a headless browser) refuses here although notifications are allowed.
 */
async function subscribeWith(reg: ServiceWorkerRegistration, key: Uint8Array<ArrayBuffer>) {
  try {
    return await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  } catch {
    throw new PushDeviceError(
      "This browser's push service would not register this device, so push notifications cannot be turned on here. Try again later, or use another browser.",
    );
  }
}
