/**
 * For tests of screens that use `ListTable`: mantine-datatable shows a column only while
 * `matchMedia(<its media query>)` matches, and a column without a query asks for `matchMedia('')`,
 * which real browsers answer with `matches: true`. The jsdom stub of the test setup answers false
 * to everything, which would hide every cell; this makes the empty query match (other queries keep
 * the stub's answer). Call it once at the top of a test file (it returns the function restoring
 * the previous stub).
 */
export function matchEmptyMediaQuery(): () => void {
  const previous = window.matchMedia.bind(window);
  window.matchMedia = (query: string) => {
    const result = previous(query);
    return query.trim() === '' ? { ...result, matches: true } : result;
  };
  return () => {
    window.matchMedia = previous;
  };
}
