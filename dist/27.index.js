export const id = 27;
export const ids = [27];
export const modules = {

/***/ 9027:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   inspectSchema: () => (/* binding */ inspectSchema),
/* harmony export */   queryable: () => (/* binding */ queryable),
/* harmony export */   tablesWithRows: () => (/* binding */ tablesWithRows)
/* harmony export */ });
/* harmony import */ var _pgkit_schemainspect__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(1746);
/* harmony import */ var _pgkit_schemainspect__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(_pgkit_schemainspect__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var pg__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(3849);
/* harmony import */ var _connection_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(7199);



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
    const client = new pg__WEBPACK_IMPORTED_MODULE_1__/* ["default"].Client */ .Ay.Client((0,_connection_js__WEBPACK_IMPORTED_MODULE_2__/* .directClientConfig */ .$P)(connection, 'preview-postgres schema diff'));
    client.on('error', () => undefined);
    await client.connect();
    try {
        return await _pgkit_schemainspect__WEBPACK_IMPORTED_MODULE_0__.PostgreSQL.create(queryable(client));
    }
    finally {
        await client.end().catch(() => undefined);
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
    const client = new pg__WEBPACK_IMPORTED_MODULE_1__/* ["default"].Client */ .Ay.Client((0,_connection_js__WEBPACK_IMPORTED_MODULE_2__/* .directClientConfig */ .$P)(connection, 'preview-postgres schema diff'));
    client.on('error', () => undefined);
    await client.connect();
    try {
        for (const table of tables) {
            const { rows } = await client.query(`SELECT EXISTS (SELECT 1 FROM ${table}) AS any`);
            if (rows[0]?.any)
                found.add(table);
        }
    }
    finally {
        await client.end().catch(() => undefined);
    }
    return found;
}


/***/ })

};
