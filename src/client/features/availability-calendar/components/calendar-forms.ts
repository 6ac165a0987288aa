// The calendar's two form dialogs, in one file of their own that the calendar loads after its month
// (docs/decisions/0066-the-calendar-s-form-dialogs-load-after-the-month.md): with them come the
// form and schema libraries, which nothing on the page needs until a dialog opens.
export { BulkDialog } from './bulk-dialog';
export { DayDialog } from './day-dialog';
