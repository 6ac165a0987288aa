export { DownloadAvailability } from './components/download-availability';
export { StaffExportMenu } from './components/staff-export-menu';
export type { GridExportFilters } from './lib/export-urls';
