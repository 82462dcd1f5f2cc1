export { SlotPicker, type SlotPickerProps } from './SlotPicker';
export * from './slot-time';
export { useViewerTimeZone } from './use-viewer-time-zone';
