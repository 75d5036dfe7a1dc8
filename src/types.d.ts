// Bun imports .sql files as text (`with { type: "text" }`); this tells TypeScript what they are.
declare module "*.sql" {
  const text: string;
  export default text;
}
