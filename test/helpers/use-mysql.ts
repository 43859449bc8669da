process.env.TEST_DATABASE = 'mysql';
