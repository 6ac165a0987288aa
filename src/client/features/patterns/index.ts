export { RepeatPattern } from './components/repeat-pattern';
