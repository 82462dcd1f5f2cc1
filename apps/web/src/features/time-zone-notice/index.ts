export { TimeZoneNotice } from './components/TimeZoneNotice';
