export { useViewerTimeZone } from '../../lib/use-clock';
