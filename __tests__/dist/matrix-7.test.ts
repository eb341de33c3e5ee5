/** The fault matrix, shard 7 of MATRIX_SHARDS (see __tests__/matrix/matrix-shard.ts; `npm run matrix` prints the whole table). */
import { matrixShard } from '../matrix/matrix-shard.js'

matrixShard(7)
