import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { nameOf, useAuth } from './auth-provider';

function Probe() {
  useAuth();
  return null;
}

describe('useAuth', () => {
  it('throws a clear error outside its provider', () => {
    expect(() => renderToString(createElement(Probe))).toThrow('useAuth must be used within an AuthProvider');
  });
});

describe('nameOf', () => {
  it('prefers the display name and falls back to the username', () => {
    expect(nameOf({ displayName: 'Alice Walker', username: 'alice@example.org' })).toBe('Alice Walker');
    expect(nameOf({ displayName: '  ', username: 'alice@example.org' })).toBe('alice@example.org');
    expect(nameOf({ displayName: null, username: 'alice@example.org' })).toBe('alice@example.org');
  });
});
