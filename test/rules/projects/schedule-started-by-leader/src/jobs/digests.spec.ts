// A test starts the jobs directly: not a caller in the service.
import { startDigestJobs, stopDigestJobs } from './digests';

startDigestJobs(console);
stopDigestJobs();
