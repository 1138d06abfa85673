/**
 * @petstore/projects: projects of documentation sites: plans, the project record, the repository port and
 * the project use cases (create, list, find the owner's, change the plan, record a deploy). Pure: no I/O and
 * no adapter; adapters implement the ports.
 */
export { ProjectIdTaken, ProjectNotFound } from "./Errors.js"
export { isPaidPlan, Plan } from "./Plan.js"
export {
  Deploy,
  DeployStatus,
  defaultHostnameOf,
  hasSucceededDeploy,
  Project,
  ProjectId,
  recordDeploy
} from "./Project.js"
export { type ProjectPage, type ProjectQuery, ProjectRepository } from "./ProjectRepository.js"
export { changePlan, createProject, findOwnedProject, listProjects, recordProjectDeploy } from "./Projects.js"
