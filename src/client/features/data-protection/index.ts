export { dataProtectionKeys } from './api/data-protection-api';
export { AssurancePage } from './components/assurance-page';
export { OwnDataCard } from './components/own-data-card';
export { type DataPerson, PersonDataDialog } from './components/person-data-dialog';
