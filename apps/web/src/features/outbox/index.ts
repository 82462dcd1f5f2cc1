export { OutboxPage } from './components/OutboxPage';
