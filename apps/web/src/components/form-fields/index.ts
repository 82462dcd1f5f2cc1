export { LanguageSelect } from './LanguageSelect';
export { TimeZoneSelect, type TimeZoneSelectProps } from './TimeZoneSelect';
