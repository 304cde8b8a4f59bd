export const election = {
  leader: false,
  isLeader(): boolean {
    return this.leader;
  },
};
