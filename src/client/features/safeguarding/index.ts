export { safeguardingKeys, useSafeguardingList } from './api/safeguarding-api';
export { OwnSafeguardingCard } from './components/own-safeguarding-card';
export { SafeguardingNotice } from './components/safeguarding-notice';
export { SafeguardingPolicyCard } from './components/safeguarding-policy-card';
export { type SafeguardingPerson, SafeguardingRecordsDialog } from './components/safeguarding-records-dialog';
export { SchoolRecordDownload } from './components/school-record-download';
