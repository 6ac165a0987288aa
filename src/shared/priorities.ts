// A staff note's priorities, kept apart from the notes schema for the same reason as the values in
// ./availability.ts: the staff pages show them without validating anything.

export const PRIORITIES = ['normal', 'high', 'urgent'] as const;
export type Priority = (typeof PRIORITIES)[number];
