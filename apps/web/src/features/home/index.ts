export { HomePage } from './components/HomePage';
export { homeLinkKeys, isHomeLink, type HomeLink, type HomeLinkKey } from './links';
