export { ComponentsShowcasePage } from './ComponentsShowcasePage';
