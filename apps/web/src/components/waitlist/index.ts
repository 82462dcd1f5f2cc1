export { WaitlistControl, type WaitlistControlProps } from './WaitlistControl';
