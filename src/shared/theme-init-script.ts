/**
 * The script that puts the stored theme on <html> before the first paint, so a dark page does not
 * flash light. The build writes it inline into index.html (vite.config.ts) rather than as a file:
 * a script file in the head blocks the first paint for a round trip of its own. The content
 * security policy allows exactly this text by its SHA-256 (src/server/plugins/http.ts), and no
 * other inline script.
 *
 * The storage key is the client's THEME_STORAGE_KEY (src/client/lib/theme.tsx).
 */
export const THEME_INIT_SCRIPT =
  "(()=>{let t='light';try{const s=localStorage.getItem('vite-ui-theme');if(s==='light'||s==='dark'||s==='system')t=s}catch{}" +
  "if(t==='system')t=window.matchMedia?.('(prefers-color-scheme: dark)').matches?'dark':'light';" +
  'document.documentElement.classList.add(t);document.documentElement.style.colorScheme=t})()';
