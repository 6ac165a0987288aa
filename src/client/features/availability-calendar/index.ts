export { AvailabilityCalendar } from './components/availability-calendar';
export { AvailabilityLegend } from './components/availability-legend';
