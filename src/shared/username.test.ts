import { describe, expect, it } from 'vitest';
import { createNoteBody } from './schemas/notes';
import { canonicalUsername, hasInvisibleCharacters, usernameMatches, usernameSkeleton } from './username';

describe('canonicalUsername', () => {
  it.each([
    ['vİctim@example.org', 'victim@example.org'],
    ['vıctim@example.org', 'victim@example.org'],
    ['  Victim@Example.ORG ', 'victim@example.org'],
    ['STRAßE', 'strasse'],
    ['ẞ', 'ss'],
    ['ΟΔΥΣΣΕΥΣ', 'οδυσσευς'],
    ['ｆｕｌｌ', 'full'],
    ['ﬁle', 'file'],
    ['e\u0301', 'é'],
  ])('%s → %s', (input, canonical) => {
    expect(canonicalUsername(input)).toBe(canonical);
    expect(canonicalUsername(canonical)).toBe(canonical);
  });
});

describe('usernameSkeleton', () => {
  it.each([
    ['аdmin', 'admin'],
    ['ΡΑUL', 'paul'],
    ['rnary', 'mary'],
    ['b0b', 'bob'],
    // a dot above a dotted letter shows nothing
    ['vi\u0307ctim', 'victim'],
    ['vI\u0307ctim', 'victim'],
    ['vı\u0307ctim', 'victim'],
    ['j\u0307\u0307ane', 'jane'],
  ])('%s looks like %s', (a, b) => {
    expect(usernameSkeleton(a)).toBe(usernameSkeleton(b));
  });

  it('keeps different letters apart', () => {
    expect(usernameSkeleton('rene')).not.toBe(usernameSkeleton('rené'));
    expect(usernameSkeleton('anna')).not.toBe(usernameSkeleton('anne'));
    expect(usernameSkeleton('ïrene')).not.toBe(usernameSkeleton('irene'));
    expect(usernameSkeleton('ȧnn')).not.toBe(usernameSkeleton('ann'));
  });
});

describe('invisible characters', () => {
  it.each([
    '\u200b',
    '\u200d',
    '\u202e',
    '\u2066',
    '\u00ad',
    '\ufe0f',
    '\u{e0041}',
    '\u2060',
    '\ufeff',
    '\u0007',
  ])('finds U+%s', (ch) => {
    expect(hasInvisibleCharacters(`a${ch}b`)).toBe(true);
  });

  it('lets ordinary usernames through', () => {
    expect(hasInvisibleCharacters('maría.o-brien+art@example.org')).toBe(false);
  });
});

describe('non-blank text in the shared schemas', () => {
  const note = (text: string) =>
    createNoteBody.safeParse({ facilitatorId: 1, date: '2026-03-02', note: text, priority: 'normal' });

  it.each(['\u200b\u200b', ' \u00ad ', '\u202e\u202c', '\ufeff'])('refuses a note of only %j', (text) => {
    const result = note(text);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('Note cannot be blank');
  });

  it('accepts a visible note', () => {
    expect(note(' Call first ').success).toBe(true);
  });
});

describe('usernameMatches (the users search)', () => {
  it('finds an account whatever the spelling of the query', () => {
    expect(usernameMatches('Victim@example.org', 'VİCT')).toBe(true);
    expect(usernameMatches('strasse@example.org', 'STRAß')).toBe(true);
    expect(usernameMatches('victim@example.org', 'bob')).toBe(false);
  });
});
