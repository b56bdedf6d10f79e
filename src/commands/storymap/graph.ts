/**
 * The dependency graph's one rule: no cycles. Returns a cycle as a path that starts and ends
 * with the same story (`[a, b, a]`), or undefined when the graph is acyclic.
 */
export const findCycle = (
  edges: ReadonlyMap<string, readonly string[]>,
  /** where to look first, so a cycle is named from the story that closed it */
  first: readonly string[] = [],
): string[] | undefined => {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  // iterative DFS: a chain of 2,000 stories would overflow a recursive one
  for (const root of [...first, ...edges.keys()]) {
    if (state.has(root)) continue;
    const stack: { node: string; next: number }[] = [{ node: root, next: 0 }];
    state.set(root, 'open');
    path.push(root);
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const deps = edges.get(top.node) ?? [];
      if (top.next >= deps.length) {
        state.set(top.node, 'done');
        stack.pop();
        path.pop();
        continue;
      }
      const dep = deps[top.next++]!;
      const seen = state.get(dep);
      if (seen === 'open') return [...path.slice(path.indexOf(dep)), dep];
      if (seen === 'done') continue;
      state.set(dep, 'open');
      path.push(dep);
      stack.push({ node: dep, next: 0 });
    }
  }
  return undefined;
};
