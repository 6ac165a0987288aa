import { type ClassValue, clsx } from 'clsx';

/**
 * Joins class names. It does not resolve Tailwind conflicts: a component that lets its caller
 * change a look offers a prop for it instead of taking an overriding class, and the browser tests
 * fail on any element whose classes override each other (ADR 68).
 */
export function cn(...inputs: ClassValue[]): string {
  return clsx(inputs);
}
