// The part of sql.js (SQLite compiled to WebAssembly, MIT) that engine/node/sqliteSessions.ts uses. The package
// ships no types of its own; these follow its documented API (sql.js.org/documentation: Database, Statement).
declare module 'sql.js' {
  export type SqlValue = number | string | Uint8Array | null;
  export interface Statement {
    bind(values?: SqlValue[]): boolean;
    step(): boolean;
    getAsObject(): Record<string, SqlValue>;
    get(params?: SqlValue[]): SqlValue[];
    reset(): boolean;
    free(): boolean;
  }
  export interface Database {
    prepare(sql: string): Statement;
    run(sql: string, params?: SqlValue[]): Database;
    export(): Uint8Array;
    close(): void;
  }
  export interface SqlJsStatic {
    Database: new (data?: Uint8Array) => Database;
  }
  export default function initSqlJs(config?: object): Promise<SqlJsStatic>;
}
