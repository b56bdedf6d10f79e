declare module 'parse-prometheus-text-format' {
  export type Sample = {
    value: string;
    labels?: Record<string, string>;
    buckets?: Record<string, string>;
    count?: string;
    sum?: string;
  };
  export type Family = { name: string; help: string; type: string; metrics: Sample[] };
  const parse: (text: string) => Family[];
  export default parse;
}
