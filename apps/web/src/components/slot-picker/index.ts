export { SlotPicker, type SlotPickerProps } from './SlotPicker';
export { slotsQueryKey } from './get-slots';
export * from './slot-time';
export { useViewerTimeZone } from './use-viewer-time-zone';
