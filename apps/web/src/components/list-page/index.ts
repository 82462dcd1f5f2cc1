export {
  ListPage,
  ListPageFrame,
  type ListPageAnswer,
  type ListPageFrameProps,
  type ListPageProps,
  type ListPageQuery,
} from './ListPage';
