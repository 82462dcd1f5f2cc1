export { DeviceCheckPage } from './components/DeviceCheckPage';
export { GuestPage } from './components/GuestPage';
export { VisitPage } from './components/VisitPage';
export { WaitingRoomPage } from './components/WaitingRoomPage';
export type { CallSidePanel } from './components/CallView';
export type { VisitSlots } from './components/VisitExperience';
