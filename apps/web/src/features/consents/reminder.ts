/**
 * The consent reminder alone, for the portal's home: loading it does not bring the signing pad,
 * the pages or the administrators' editor that the feature's index holds.
 */
export { ConsentReminder } from './components/ConsentReminder';
