export { ListSearchInput, type ListSearchInputProps } from './ListSearchInput';
export {
  describeRange,
  ListTable,
  type ListTableBreakpoint,
  type ListTableColumn,
  type ListTableProps,
  type ListTableState,
} from './ListTable';
