// The self-test matrix, shard 2 of 2 (test/matrix/matrix.suite.ts): every fault trips exactly the ids it declares.
import { matrixSuite } from './matrix.suite.ts';

matrixSuite(1, 2);
