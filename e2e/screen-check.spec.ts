import { expect, screenCheck, test } from './fixtures';

/*
 * The screen check (checkScreen) leaves out the parts of a page that passed an earlier check in the same worker and
 * layout (ADR 112). These tests hold it to what that must not cost: a part that differs in anything
 * axe reads (its text, its attributes, the classes and styles around it) is checked again, and a new
 * part beside passed ones is checked. The pages are written here, so nothing else changes between
 * the checks; their colours are set, so both themes draw them alike.
 */

const page = (main: string, around = '') => `<!doctype html>
<html lang="en"><head><title>Screen check</title>
<style>body { background: #fff; color: #111; } a { color: #0645ad; }</style></head>
<body><header><nav aria-label="Main"><a href="#a">Home</a> <a href="#b">Calendar</a></nav></header>
<main${around}><h1>Screen check</h1>${main}</main></body></html>`;

const PASSING =
  '<ul><li>First</li><li>Second</li></ul><p>Readable text</p><button>Save</button>' +
  '<label for="name">Name</label> <input id="name"> <div aria-hidden="true"><span role="img"></span></div>';

test('a part that passed is left out only while it is the same', async ({ page: tab }, testInfo) => {
  await tab.setContent(page(PASSING));
  await screenCheck(tab, testInfo, 'screen-check-passing');

  // the same page again passes, and a button added beside the passed parts is still checked
  await tab.setContent(page(PASSING));
  await screenCheck(tab, testInfo, 'screen-check-same');
  await tab.setContent(page(`${PASSING}<button></button>`));
  await expect(screenCheck(tab, testInfo, 'screen-check-new-part')).rejects.toThrow(/"id": "button-name"/);

  // a passed button whose text is now blank is a different part
  await tab.setContent(page(PASSING.replace('Save', ' ')));
  await expect(screenCheck(tab, testInfo, 'screen-check-changed-text')).rejects.toThrow(
    /"id": "button-name"/,
  );

  // the same paragraph under a style that makes it faint is checked again
  await tab.setContent(page(PASSING, ' style="color: #c8c8c8"'));
  await expect(screenCheck(tab, testInfo, 'screen-check-changed-around')).rejects.toThrow(
    /"id": "color-contrast"/,
  );

  // and so is a list whose items are no longer list items
  await tab.setContent(page(PASSING.replace('<li>First</li>', '<div>First</div>')));
  await expect(screenCheck(tab, testInfo, 'screen-check-changed-inside')).rejects.toThrow(/"id": "list"/);

  // a field whose label elsewhere is now blank is checked again
  await tab.setContent(page(PASSING.replace('>Name<', '> <')));
  await expect(screenCheck(tab, testInfo, 'screen-check-changed-label')).rejects.toThrow(/"id": "label"/);

  // and so is an image that was hidden from assistive technology and no longer is
  await tab.setContent(page(PASSING.replace(' aria-hidden="true"', '')));
  await expect(screenCheck(tab, testInfo, 'screen-check-changed-hidden')).rejects.toThrow(
    /"id": "role-img-alt"/,
  );
});
