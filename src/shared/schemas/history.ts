import { z } from 'zod';

/**
 * How a change was made, as the history records it: a facilitator on their own calendar, staff
 * editing someone, a bulk update, a recurring pattern, or a SharePoint import/refresh.
 */
export const CHANGE_SOURCES = ['facilitator', 'staff', 'bulk', 'pattern', 'sharepoint'] as const;
export type ChangeSource = (typeof CHANGE_SOURCES)[number];
export const changeSource = z.enum(CHANGE_SOURCES);
