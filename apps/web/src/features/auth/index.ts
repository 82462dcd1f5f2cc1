export { AuthLanding } from './components/AuthLanding';
