export { DeviceCheckPage } from './components/DeviceCheckPage';
export { GuestPage } from './components/GuestPage';
export { VisitPage } from './components/VisitPage';
export { WaitingRoomPage } from './components/WaitingRoomPage';
