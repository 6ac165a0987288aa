import { type ClassValue, clsx } from 'clsx';

/**
 * Joins class names. It does not resolve Tailwind conflicts: a component that lets its caller
 * change a look offers a prop for it instead of taking an overriding class. The browser tests fail
 * on an element of a checked screen that has two classes of which tailwind-merge would drop one
 * (ADR 68).
 */
export function cn(...inputs: ClassValue[]): string {
  return clsx(inputs);
}
