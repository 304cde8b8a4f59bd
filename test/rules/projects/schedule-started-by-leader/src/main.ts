import { LeaderElection } from './leader/election';
import { startInvoiceJobs } from './jobs/invoices';

const election = new LeaderElection();
election.warmUp();
void election.campaign();
startInvoiceJobs();
