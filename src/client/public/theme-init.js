// Applies the stored theme before first paint so a dark page does not flash light.
// Kept external because the content security policy forbids inline scripts.
(() => {
  let theme = 'light';
  try {
    const stored = window.localStorage.getItem('vite-ui-theme');
    if (stored === 'light' || stored === 'dark' || stored === 'system') theme = stored;
  } catch {}
  if (theme === 'system') {
    theme = window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  }
  document.documentElement.classList.add(theme);
  document.documentElement.style.colorScheme = theme;
})();
