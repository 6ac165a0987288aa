export { DayHistory } from './components/day-history';
export { MyHistory } from './components/my-history';
export { type HistoryPerson, PersonHistoryDialog } from './components/person-history-dialog';
