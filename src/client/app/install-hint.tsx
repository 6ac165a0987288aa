import { Download, X } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { promptInstall, useInstallPrompt } from '@/lib/install-prompt';
import { useNarrowScreen } from '@/lib/use-narrow-screen';

const DISMISSED_KEY = 'afp-install-hint-dismissed';

function dismissedBefore(): boolean {
  try {
    return localStorage.getItem(DISMISSED_KEY) === '1';
  } catch {
    return true;
  }
}

const installed = () =>
  window.matchMedia?.('(display-mode: standalone)').matches ||
  (navigator as Navigator & { standalone?: boolean }).standalone === true;

const isIos = () => /iPhone|iPad|iPod/.test(navigator.userAgent);

/**
 * A quiet hint on phones that the portal can be installed: the browser's own install prompt where it
 * offers one, on iPhone and iPad the Share menu's "Add to Home Screen". Shown until dismissed or
 * installed, and never again once dismissed on this device.
 */
export function InstallHint() {
  const narrow = useNarrowScreen();
  // caught from the page's start (main.tsx): the browser offers it once, maybe before this page
  const prompt = useInstallPrompt();
  const [dismissed, setDismissed] = useState(dismissedBefore);
  if (!narrow || dismissed || installed() || (!prompt && !isIos())) return null;
  const dismiss = () => {
    try {
      localStorage.setItem(DISMISSED_KEY, '1');
    } catch {
      // storage refused: hidden for this visit only
    }
    setDismissed(true);
  };
  return (
    <aside
      aria-label="Install the portal"
      className="flex flex-wrap items-center gap-x-3 gap-y-2 border-b px-4 py-2 text-sm"
    >
      <p className="min-w-0 flex-1">
        {prompt
          ? 'Install the portal on this phone to open it like an app, even with no signal.'
          : 'To install the portal on this phone: Share → Add to Home Screen.'}
      </p>
      {prompt ? (
        <Button size="sm" onClick={() => promptInstall(prompt)}>
          <Download aria-hidden />
          Install
        </Button>
      ) : null}
      <Button size="sm" variant="ghost" onClick={dismiss}>
        <X aria-hidden />
        Not now
      </Button>
    </aside>
  );
}
