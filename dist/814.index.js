export const id = 814;
export const ids = [814];
export const modules = {

/***/ 50814:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  diffSchemas: () => (/* reexport */ diffSchemas),
  inspectSchema: () => (/* reexport */ inspectSchema),
  tablesWithRows: () => (/* reexport */ tablesWithRows)
});

// EXTERNAL MODULE: ./node_modules/@pgkit/schemainspect/dist/index.js
var dist = __webpack_require__(21746);
// EXTERNAL MODULE: ./src/session.ts
var session = __webpack_require__(92927);
;// CONCATENATED MODULE: ./src/schema/inspect.ts


/** The query methods schemainspect calls (`any`, `oneFirst`, …), over a `pg` client. */
function queryable(client) {
    const any = async (q) => (await client.query(q.sql, (q.values ?? []))).rows;
    const first = (row) => Object.values(row)[0];
    const maybeOne = async (q) => (await any(q))[0] ?? null;
    const one = async (q) => {
        const row = await maybeOne(q);
        if (row === null)
            throw new Error('schema inspection: a query returned no row');
        return row;
    };
    const methods = {
        query: async (q) => ({ rows: await any(q) }),
        any,
        many: any,
        maybeOne,
        one,
        oneFirst: async (q) => first(await one(q)),
        maybeOneFirst: async (q) => {
            const row = await maybeOne(q);
            return row === null ? null : first(row);
        },
        anyFirst: async (q) => (await any(q)).map(first),
        manyFirst: async (q) => (await any(q)).map(first)
    };
    return methods;
}
/**
 * Inspects the database's schema over its direct connection.
 * @throws the driver's error when the database cannot be reached or read
 */
async function inspectSchema(connection) {
    const lease = await (0,session/* leaseSession */.f)(connection); // the run's one session (session.ts)
    try {
        return await dist.PostgreSQL.create(queryable(lease.client));
    }
    finally {
        lease.release();
    }
}
/**
 * Whether `table` (a quoted `"schema"."name"`) has at least one row now.
 * Used to flag `SET NOT NULL` on a table with rows as destructive.
 */
async function tablesWithRows(connection, tables) {
    const found = new Set();
    if (tables.length === 0)
        return found;
    const lease = await (0,session/* leaseSession */.f)(connection);
    try {
        for (const table of tables) {
            const { rows } = await lease.client.query(`SELECT EXISTS (SELECT 1 FROM ${table}) AS any`);
            if (rows[0]?.any)
                found.add(table);
        }
    }
    finally {
        lease.release();
    }
    return found;
}

// EXTERNAL MODULE: ./node_modules/@pgkit/migra/dist/index.js
var migra_dist = __webpack_require__(94007);
// EXTERNAL MODULE: ./src/seed/wasm-dirname.ts
var wasm_dirname = __webpack_require__(82728);
// EXTERNAL MODULE: ./node_modules/libpg-query/wasm/index.cjs
var wasm = __webpack_require__(2627);
;// CONCATENATED MODULE: ./src/schema/classify.ts
/**
 * What each statement of a schema migration does, read with the real
 * PostgreSQL grammar (`libpg-query`): which kind of object it adds, changes
 * or drops, and whether it is destructive for a database with data.
 *
 * Destructive (issue 15): dropped tables or columns; column type changes that
 * may rewrite the table or narrow values; `SET NOT NULL` on a table that has
 * rows; dropped constraints (data may rely on them). A constraint dropped and
 * re-added under the same name on the same table is a change, not a drop.
 */


const str = (n) => (n?.String?.sval ?? '');
const quoted = (schema, name) => `"${schema || 'public'}"."${name}"`;
const relation = (r) => {
    const rel = r;
    return quoted(rel.schemaname, rel.relname);
};
/**
 * A type change that neither rewrites the table nor narrows values
 * (PostgreSQL docs, ALTER TABLE: "changing the type of an existing column
 * will normally cause the entire table to be rewritten", except binary
 * coercible widenings): varchar(n) → varchar(m ≥ n), varchar or text,
 * numeric(p,s) → numeric(p' ≥ p, s) or unconstrained numeric.
 */
function isSafeWidening(from, to) {
    if (from === to)
        return true;
    const varchar = /^character varying(?:\((\d+)\))?$/;
    const f = varchar.exec(from);
    if (f) {
        if (to === 'text')
            return true;
        const t = varchar.exec(to);
        return !!t && (!t[1] || (!!f[1] && Number(t[1]) >= Number(f[1])));
    }
    const numeric = /^numeric(?:\((\d+),(\d+)\))?$/;
    const nf = numeric.exec(from);
    const nt = numeric.exec(to);
    if (nf && nt)
        return !nt[1] || (!!nf[1] && Number(nt[1]) >= Number(nf[1]) && nt[2] === nf[2]);
    return false;
}
/** A `SET NOT NULL` is destructive only on a table with rows: classification marks it, the caller checks the rows. */
const NOT_NULL_ON_ROWS = 'adds NOT NULL to a column of a table with rows';
/**
 * Splits a migration script into statements where the PostgreSQL grammar
 * ends them (so semicolons in function bodies do not split), and classifies
 * each. `SET NOT NULL` statements get `notNull: true`; the caller decides
 * from the table's rows whether they are destructive ({@link NOT_NULL_ON_ROWS}).
 * @throws Error when the script does not parse
 */
async function classifyScript(script, facts) {
    await (0,wasm.loadModule)().then(wasm_dirname/* restoreDirname */.N);
    if (script.trim() === '')
        return [];
    const bytes = Buffer.from(script, 'utf8');
    const parsed = (0,wasm.parseSync)(script);
    const out = [];
    for (const { stmt, stmt_location = 0, stmt_len } of parsed.stmts ?? []) {
        const end = stmt_len ? stmt_location + stmt_len : bytes.length;
        const sql = bytes.subarray(stmt_location, end).toString('utf8').trim();
        const [type, body] = Object.entries(stmt)[0] ?? ['', {}];
        out.push(...classifyOne(sql, type, body, facts));
    }
    // A new table's own indexes and constraints (its primary key, say) are part of adding it.
    const newTables = new Set(out.filter((s) => s.kind === 'table' && s.change === 'added').map((s) => s.table));
    for (const s of out)
        if ((s.kind === 'index' || s.kind === 'constraint') && s.change === 'added' && newTables.has(s.table))
            s.followUp = true;
    // A constraint dropped and added again under the same name is a changed constraint.
    for (const drop of out.filter((s) => s.kind === 'constraint' && s.change === 'dropped')) {
        const add = out.find((s) => s.kind === 'constraint' && s.change === 'added' && !s.followUp && s.table === drop.table && s.name === drop.name);
        if (add) {
            drop.change = 'changed';
            drop.destructive = undefined;
            add.change = 'changed';
            add.followUp = true;
        }
    }
    return out;
}
function classifyOne(sql, type, body, facts) {
    switch (type) {
        case 'CreateStmt':
            return [{ sql, kind: 'table', change: 'added', table: relation(body.relation) }];
        case 'ViewStmt':
            return [{ sql, kind: 'view', change: body.replace ? 'changed' : 'added', table: relation(body.view) }];
        case 'IndexStmt':
            return [{ sql, kind: 'index', change: 'added', name: String(body.idxname ?? ''), table: relation(body.relation) }];
        case 'CreateFunctionStmt': {
            const parts = body.funcname.map(str);
            const name = quoted(parts.length > 1 ? parts[0] : undefined, parts.at(-1));
            return [{ sql, kind: 'function', change: facts.functionExisted(name) ? 'changed' : 'added', name }];
        }
        case 'DropStmt': {
            const kinds = { OBJECT_TABLE: 'table', OBJECT_INDEX: 'index', OBJECT_FUNCTION: 'function', OBJECT_VIEW: 'view', OBJECT_MATVIEW: 'view' };
            const kind = kinds[String(body.removeType)] ?? 'other';
            const first = body.objects?.[0] ?? {};
            const parts = (first.List?.items ?? first.ObjectWithArgs?.objname ?? []).map(str);
            const name = parts.length ? quoted(parts.length > 1 ? parts[0] : undefined, parts.at(-1)) : undefined;
            if (kind === 'table')
                return [{ sql, kind, change: 'dropped', table: name, destructive: 'drops a table and its rows' }];
            return [{ sql, kind, change: 'dropped', name }];
        }
        case 'AlterTableStmt':
            return (body.cmds ?? []).map((c) => classifyAlter(sql, relation(body.relation), c.AlterTableCmd, facts));
        default:
            return [{ sql, kind: 'other', change: 'changed' }];
    }
}
function classifyAlter(sql, table, cmd, facts) {
    const name = String(cmd.name ?? cmd.def?.Constraint?.conname ?? '');
    switch (cmd.subtype) {
        case 'AT_AddColumn':
            return { sql, kind: 'column', change: 'added', table, name: String(cmd.def?.ColumnDef?.colname ?? '') };
        case 'AT_DropColumn':
            return { sql, kind: 'column', change: 'dropped', table, name, destructive: 'drops a column and its values' };
        case 'AT_AlterColumnType': {
            const from = facts.columnTypes(table)?.[name];
            const to = facts.newColumnTypes(table)?.[name];
            const safe = from !== undefined && to !== undefined && isSafeWidening(from, to);
            return {
                sql,
                kind: 'column',
                change: 'changed',
                table,
                name,
                destructive: safe ? undefined : `changes the type${from && to ? ` from ${from} to ${to}` : ''}, which may rewrite the table or narrow values`
            };
        }
        case 'AT_SetNotNull':
            return { sql, kind: 'column', change: 'changed', table, name, notNull: true };
        case 'AT_AddConstraint':
            return { sql, kind: 'constraint', change: 'added', table, name };
        case 'AT_ValidateConstraint':
            return { sql, kind: 'constraint', change: 'added', table, name, followUp: true };
        case 'AT_DropConstraint':
            return { sql, kind: 'constraint', change: 'dropped', table, name, destructive: 'drops a constraint that data may rely on' };
        default:
            return { sql, kind: 'column', change: 'changed', table, name };
    }
}

;// CONCATENATED MODULE: ./src/schema/diff.ts
/**
 * What a pull request does to the database's schema (issue 15): two schema
 * snapshots compared with `@pgkit/migra` (a port of the maintained migra),
 * its statements classified with the PostgreSQL grammar, summarised in one
 * line and shown as a diff.
 *
 * Instant mode compares the schema after `seed` with the schema after
 * `seed-command` (what the PR's migrations changed). Branch mode compares the
 * new branch as created (its parent's schema) with the branch after `seed`
 * and `seed-command`, and shows the platform's own compare_schema diff
 * against the parent.
 */


const PLURAL = {
    table: ['table', 'tables'],
    column: ['column', 'columns'],
    index: ['index', 'indexes'],
    constraint: ['constraint', 'constraints'],
    function: ['function', 'functions'],
    view: ['view', 'views'],
    other: ['other statement', 'other statements']
};
/** "2 tables added, 1 column dropped" (kinds in a fixed order; follow-up statements not counted). */
function summarise(statements) {
    const parts = [];
    for (const kind of Object.keys(PLURAL)) {
        for (const change of ['added', 'changed', 'dropped']) {
            const n = statements.filter((s) => s.kind === kind && s.change === change && !s.followUp).length;
            if (n > 0)
                parts.push(`${n} ${PLURAL[kind][n === 1 ? 0 : 1]} ${change}`);
        }
    }
    return parts.length ? parts.join(', ') : 'no schema change';
}
/** The statements as diff lines: `+` adds, `-` drops, `~` changes; each statement's lines kept together. */
function renderStatements(statements) {
    const mark = { added: '+', dropped: '-', changed: '~' };
    const seen = new Set();
    const lines = [];
    for (const s of statements) {
        if (seen.has(s.sql))
            continue; // one ALTER TABLE with several commands is one statement
        seen.add(s.sql);
        const m = mark[s.change];
        for (const line of s.sql.split('\n'))
            if (line.trim())
                lines.push(`${m} ${line.replace(/^ {2}/, '')}`);
    }
    return lines.join('\n');
}
function columnTypes(snapshot, table) {
    const t = snapshot.tables[table];
    if (!t?.columns)
        return undefined;
    return Object.fromEntries(Object.entries(t.columns).map(([name, c]) => [name, String(c.dbtypestr ?? '')]));
}
/**
 * Compares two snapshots of one database.
 * @param rowsIn returns which of the given tables (quoted names) have rows after the change
 * @param platformDiff the platform's compare_schema text, shown instead of ours when given
 */
async function diffSchemas(before, after, rowsIn, platformDiff) {
    const migration = await migra_dist/* Migration */.Nh.create(before, after, {});
    migration.set_safety(false);
    migration.add_all_changes();
    const statements = await classifyScript(migration.sql, {
        columnTypes: (t) => columnTypes(before, t),
        newColumnTypes: (t) => columnTypes(after, t),
        functionExisted: (name) => Object.keys(before.functions).some((k) => k.startsWith(`${name}(`))
    });
    const notNull = statements.filter((s) => s.notNull && s.table);
    const rows = await rowsIn([...new Set(notNull.map((s) => s.table))]);
    for (const s of notNull)
        if (rows.has(s.table))
            s.destructive = NOT_NULL_ON_ROWS;
    const destructive = statements.filter((s) => s.destructive).map((s) => `${s.table ?? s.name ?? ''}${s.name && s.table ? `.${s.name}` : ''}: ${s.destructive}`);
    const ours = renderStatements(statements);
    const usePlatform = platformDiff !== undefined && platformDiff.trim() !== '';
    return {
        changed: statements.length > 0 || usePlatform,
        statements,
        summary: summarise(statements),
        diff: usePlatform ? platformDiff.trimEnd() : ours,
        source: usePlatform ? 'platform' : 'migra',
        destructive
    };
}

;// CONCATENATED MODULE: ./src/schema/lazy.ts
/**
 * The one entry that src/schema/track.ts loads on first use: the inspector
 * and the differ in a single bundle chunk (two dynamic imports made ncc put
 * the shared classifier into two chunks).
 */




/***/ })

};
