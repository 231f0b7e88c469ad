//! Table-driven checks of the rules for irreversible actions outside the project
//! (`policy/55-irreversible.toml`, and `disk.destroy` with the disk entries of the protected
//! list): one line per case, `(decision, rule, command)`. The forbidden forms come with
//! wrappers, options before the subcommand and other spellings; their ordinary neighbours
//! keep the decision they had before these rules. Cases run in the fixed imaginary machine
//! of `examples` (home `/home/user`, working folder `/home/user/project`, nothing on disk).

use crate::support::table;

use table::check;

/// Kubernetes: namespaces and `--all` / `-A` deletes are Forbidden; reads and one named object are not.
#[test]
#[rustfmt::skip]
fn kubernetes() {
    check(&[
        ("deny", "k8s.delete-namespace", "kubectl delete ns prod"),
        ("deny", "k8s.delete-namespace", "kubectl delete namespace staging"),
        ("deny", "k8s.delete-namespace", "kubectl delete namespaces a b"),
        ("deny", "k8s.delete-namespace", "kubectl -n prod delete ns prod"),
        ("deny", "k8s.delete-namespace", "kubectl --context prod-cluster delete namespace x"),
        ("deny", "k8s.delete-namespace", "kubectl --namespace=prod delete ns x --wait=false"),
        ("deny", "k8s.delete-namespace", "sudo kubectl delete ns prod"),
        ("deny", "k8s.delete-namespace", "env KUBECONFIG=./k kubectl delete ns prod"),
        ("deny", "k8s.delete-namespace", "timeout 60 kubectl delete namespace prod"),
        ("deny", "k8s.delete-namespace-ref", "kubectl delete ns/prod"),
        ("deny", "k8s.delete-namespace-ref", "kubectl delete namespace/prod deploy/web"),
        ("deny", "k8s.delete-all", "kubectl delete pods --all"),
        ("deny", "k8s.delete-all", "kubectl delete all --all"),
        ("deny", "k8s.delete-all", "kubectl delete --all deployments -n prod"),
        ("deny", "k8s.delete-all", "kubectl -n prod delete svc --all"),
        ("deny", "k8s.delete-all", "kubectl delete pods -A -l app=web"),
        ("deny", "k8s.delete-all", "kubectl delete pvc --all-namespaces --all"),
        ("deny", "k8s.delete-namespace", "oc delete project demo"),
        ("deny", "k8s.delete-namespace", "kubectl delete ns x --dry-run=none"),
        ("allow", "container.query", "kubectl get pods"),
        ("allow", "container.query", "kubectl get ns"),
        ("allow", "container.query", "kubectl -n prod get pods"),
        // `-o` takes its value before the subcommand too; a template file there is a word of
        // unknown use.
        ("allow", "container.query", "kubectl -o yaml get pods"),
        ("allow", "container.query", "kubectl --output=json get pods"),
        ("ask", "path.secret-named", "kubectl -o jsonpath-file=~/.ssh/id_rsa get pods"),
        ("allow", "container.query", "kubectl get pods -A"),
        ("ask", "run.container", "kubectl delete pod x"),
        ("ask", "run.container", "kubectl -n prod delete pod web-1"),
        ("ask", "run.container", "kubectl delete deploy/ns"),
        ("ask", "run.container", "kubectl delete pods --all --dry-run=client"),
        ("ask", "run.container", "kubectl delete ns x --dry-run=server"),
        ("allow", "cli.help-subcommand", "kubectl delete ns --help"),
        ("ask", "run.container", "kubectl apply -f ns.yaml"),
    ]);
}

/// Terraform, OpenTofu, Terragrunt, Pulumi: destroy is Forbidden; plan and apply are not.
#[test]
#[rustfmt::skip]
fn infrastructure_as_code() {
    check(&[
        ("deny", "iac.destroy", "terraform destroy"),
        ("deny", "iac.destroy", "terraform destroy -auto-approve"),
        ("deny", "iac.destroy", "terraform -chdir=infra destroy -auto-approve"),
        ("deny", "iac.destroy", "terraform destroy -target=aws_instance.web -auto-approve"),
        ("deny", "iac.apply-destroy", "terraform apply -destroy"),
        ("deny", "iac.apply-destroy", "terraform apply -auto-approve -destroy"),
        ("deny", "iac.apply-destroy", "terraform -chdir=envs/prod apply -destroy"),
        ("deny", "iac.destroy", "sudo terraform destroy"),
        ("deny", "iac.destroy", "env TF_LOG=debug terraform destroy"),
        ("deny", "iac.destroy", "timeout 600 terraform destroy -auto-approve"),
        ("deny", "iac.destroy", "tofu destroy"),
        ("deny", "iac.destroy", "tofu -chdir=infra destroy"),
        ("deny", "iac.apply-destroy", "tofu apply -destroy"),
        ("deny", "iac.destroy", "terragrunt run-all destroy"),
        ("deny", "iac.destroy", "pulumi destroy --yes"),
        ("ask", "run.container", "terraform plan"),
        ("ask", "run.container", "terraform plan -destroy"),
        ("ask", "run.container", "terraform apply"),
        ("ask", "run.container", "terraform apply -auto-approve"),
        ("ask", "run.container", "terraform init"),
        ("ask", "unknown.command", "tofu plan"),
        ("ask", "run.container", "terraform destroy -help"),
        ("ask", "run.container", "pulumi destroy --preview-only"),
    ]);
}

/// Recursive deletes in S3 and Cloud Storage, forced bucket removal, deleting projects and accounts.
#[test]
#[rustfmt::skip]
fn object_stores_and_cloud_accounts() {
    check(&[
        ("deny", "cloud.s3-rm-recursive", "aws s3 rm --recursive s3://bucket"),
        ("deny", "cloud.s3-rm-recursive", "aws s3 rm s3://bucket/logs/ --recursive"),
        ("deny", "cloud.s3-rm-recursive", "aws --profile prod s3 rm --recursive s3://b"),
        ("deny", "cloud.s3-rm-recursive", "aws --region eu-west-1 --profile p s3 rm s3://b --recursive"),
        ("deny", "cloud.s3-rm-recursive", "sudo aws s3 rm --recursive s3://b"),
        ("deny", "cloud.s3-rb-force", "aws s3 rb --force s3://bucket"),
        ("deny", "cloud.s3-rb-force", "aws s3 rb s3://bucket --force"),
        ("deny", "cloud.gcs-rm-recursive", "gsutil rm -r gs://bucket"),
        ("deny", "cloud.gcs-rm-recursive", "gsutil rm -R gs://bucket/dir"),
        ("deny", "cloud.gcs-rm-recursive", "gsutil -m rm -r gs://bucket"),
        ("deny", "cloud.gcs-rm-recursive", "gsutil -o GSUtil:parallel_process_count=1 -m rm -r gs://b"),
        ("deny", "cloud.gcs-rm-recursive", "gcloud storage rm -r gs://bucket"),
        ("deny", "cloud.gcs-rm-recursive", "gcloud storage rm --recursive gs://b/x"),
        ("deny", "cloud.gcs-rm-recursive", "gcloud --project p storage rm -r gs://b"),
        ("deny", "cloud.project-delete", "gcloud projects delete my-project"),
        ("deny", "cloud.project-delete", "gcloud projects delete my-project --quiet"),
        ("deny", "cloud.project-delete", "aws organizations close-account --account-id 123456789012"),
        ("deny", "cloud.project-delete", "az group delete -n my-rg --yes"),
        ("allow", "cloud.query", "aws s3 ls"),
        ("allow", "cloud.query", "aws s3 ls --recursive s3://b"),
        ("ask", "unknown.command", "aws s3 cp a.txt s3://b/a.txt"),
        ("ask", "unknown.command", "aws s3 cp --recursive ./site s3://b"),
        ("ask", "unknown.command", "aws s3 rm s3://bucket/key"),
        ("ask", "unknown.command", "aws s3 rm --recursive --dryrun s3://b"),
        ("ask", "unknown.command", "aws s3 rb s3://bucket"),
        ("ask", "unknown.command", "gsutil rm gs://bucket/key"),
        ("ask", "unknown.command", "gsutil ls -r gs://b"),
        ("ask", "unknown.command", "gcloud storage rm gs://b/k"),
        ("allow", "cloud.query", "gcloud projects list"),
        ("allow", "cloud.query", "gcloud projects describe p"),
    ]);
}

/// Removing or replacing the whole crontab is Forbidden; editing is asked, listing Safe.
#[test]
#[rustfmt::skip]
fn the_crontab() {
    check(&[
        ("deny", "cron.remove", "crontab -r"),
        ("deny", "cron.remove", "crontab -ir"),
        ("deny", "cron.remove", "crontab -ri"),
        ("deny", "cron.remove", "crontab -i -r"),
        ("deny", "cron.remove", "crontab -u bob -r"),
        ("deny", "cron.remove", "sudo crontab -r"),
        ("deny", "cron.replace", "echo '0 * * * * /x' | crontab -"),
        ("deny", "cron.replace", "crontab -"),
        ("deny", "cron.replace", "(crontab -l; echo '@daily /x') | crontab -"),
        ("deny", "cron.replace", "crontab mycron.txt"),
        ("deny", "cron.replace", "crontab -u bob jobs.cron"),
        ("deny", "cron.replace", "crontab < jobs"),
        ("deny", "cron.replace", "sudo crontab -"),
        ("allow", "proc.schedule-list", "crontab -l"),
        ("allow", "proc.schedule-list", "crontab -u bob -l"),
        ("ask", "proc.schedule", "crontab -l -e"),
        ("ask", "proc.schedule", "crontab -e"),
        ("allow", "any.version-help", "crontab --help"),
    ]);
}

/// Mounting the host's root, home, system folders, secrets or the engine socket, and
/// `--privileged` / `--pid=host`. A mount's source is judged as a path, resolved against the
/// home folder of the machine: in the auto sessions' scratch machine `/home/user` below
/// stands for its home, which lies deeper, so a home named by its absolute path is denied
/// there too.
#[test]
#[rustfmt::skip]
fn containers_that_reach_the_host() {
    check(&[
        ("deny", "container.mount-host", "docker run -v /:/host ubuntu"),
        ("deny", "container.mount-host", "docker run --rm -it -v /:/mnt:ro alpine sh"),
        ("deny", "container.mount-host", "docker run -v ~:/home/me img"),
        ("deny", "container.mount-host", "docker run -v ~/:/h img"),
        ("deny", "container.mount-host", "docker run -v \"$HOME\":/h img"),
        ("deny", "container.mount-host", "docker run -v ${HOME}:/h img"),
        ("deny", "container.mount-host", "docker run --volume=/etc:/host-etc img"),
        ("deny", "container.mount-host", "docker run -v /home:/home img"),
        ("deny", "container.mount-host", "docker run -v /root:/r img"),
        ("deny", "container.mount-host", "docker run -v /usr:/u img"),
        ("deny", "container.mount-host", "docker run -v ~/.ssh:/root/.ssh:ro img"),
        // Write access to the hook's own settings and state: a protected path or a folder
        // holding one; read-only, the container can change nothing there.
        ("deny", "container.mount-host", "docker run -v ~/.claude:/c img"),
        ("deny", "container.mount-host", "docker run -v ~/.claude/:/c:rw img"),
        ("deny", "container.mount-host", "docker run -v $HOME/.claude/settings.json:/s img"),
        ("deny", "container.mount-host", "docker run --mount type=bind,src=$HOME/.claude,dst=/c img"),
        ("deny", "container.mount-host", "docker run -v ~/.claude/state:/st img"),
        ("deny", "container.mount-host", "docker run -v /etc/hosts:/etc/hosts img"),
        ("ask", "run.container", "docker run -v ~/.claude:/c:ro img"),
        ("ask", "run.container", "docker run --mount type=bind,src=$HOME/.claude,dst=/c,readonly img"),
        ("ask", "run.container", "docker run -v /etc/hosts:/etc/hosts:ro img"),
        ("ask", "run.container", "docker run -v ~/.claude-notes:/n img"),
        ("deny", "container.mount-host", "docker run -v $HOME/.ssh/id_ed25519:/key img"),
        ("deny", "container.mount-host", "docker run -v /var/run/docker.sock:/var/run/docker.sock img"),
        ("deny", "container.mount-host", "docker run -v /run/podman/podman.sock:/s img"),
        ("deny", "container.mount-host", "docker run --mount type=bind,source=/,target=/host img"),
        ("deny", "container.mount-host", "docker run --mount=type=bind,src=$HOME,dst=/h img"),
        ("deny", "container.mount-host", "docker run --mount target=/e,type=bind,source=/etc img"),
        ("deny", "container.mount-host", "docker run -itv /:/h img"),
        ("deny", "container.mount-host", "docker run -v/:/h img"),
        ("deny", "container.mount-host", "docker create -v /etc/:/e img"),
        ("deny", "container.mount-host", "docker container run -v /:/h img"),
        ("deny", "container.mount-host", "docker container create -v ~:/h img"),
        ("deny", "container.mount-host", "podman run -v /:/h img"),
        ("deny", "container.mount-host", "nerdctl run -v /:/h img"),
        ("deny", "container.mount-host", "docker -H ssh://host run -v /:/h img"),
        ("deny", "container.mount-host", "docker --context prod run -v /:/h img"),
        ("deny", "container.mount-host", "sudo docker run -v /:/h img"),
        ("deny", "container.mount-host", "docker compose run -v ~/.gnupg:/g svc"),
        ("deny", "container.mount-host", "docker run --volume /home/user:/data img"),
        ("deny", "container.mount-host", "docker run -v /home/user/:/data img"),
        ("deny", "container.mount-host", "docker run --mount type=bind,source=/home/user,target=/h img"),
        ("deny", "container.mount-host", "docker run -v /home/user/.ssh:/k img"),
        ("deny", "container.mount-host", "docker run -v \"$HOME/../..\":/x img"),
        ("deny", "container.mount-host", "docker run -v \"$HOME/..\":/x img"),
        ("deny", "container.mount-host", "docker run -v ~/.ssh/../.ssh:/x img"),
        ("deny", "container.mount-host", "docker run -v ~/project/..:/x img"),
        ("deny", "container.mount-host", "docker run -v ..:/x img"),
        ("deny", "container.mount-host", "docker run -v $(pwd)/..:/x img"),
        ("deny", "container.mount-host", "docker run -v /etc/../etc:/x img"),
        ("deny", "container.mount-host", "docker run -v /usr/./bin/:/x img"),
        ("deny", "container.mount-host", "docker run -v '/etc':/x img"),
        ("deny", "container.mount-host", "docker run -v \"/\":/x img"),
        ("deny", "container.mount-host", "docker run -v=/:/h img"),
        ("deny", "container.mount-host", "docker run -dv=/etc:/e img"),
        ("deny", "container.mount-host", "docker run -v ${HOME}/.gnupg:/g img"),
        ("deny", "container.mount-host", "docker run -v ~/.aws:/root/.aws:ro img"),
        ("deny", "container.mount-host", "docker run -v ~/.kube/config:/k img"),
        ("deny", "container.mount-host", "docker run -v /var/run:/var/run img"),
        ("deny", "container.mount-host", "docker run -v /run/user/1000/docker.sock:/s img"),
        ("deny", "container.mount-host", "docker run -v $XDG_RUNTIME_DIR/podman/podman.sock:/s img"),
        ("deny", "container.mount-host", "docker run --mount type=bind,src=/run/containerd/containerd.sock,dst=/s img"),
        ("deny", "container.mount-host", "docker run -v ./data:/data -v /:/h img"),
        ("deny", "container.mount-host", "docker run -it --rm --volume=/var:/v img sh"),
        ("deny", "container.mount-host", "podman create --mount=type=bind,source=/usr,target=/u img"),
        ("deny", "container.mount-host", "docker run -v /tmp:/t img"),
        ("deny", "container.mount-host", "docker run -v /opt:/o img"),
        ("deny", "container.mount-host", "docker run -v /home/bob:/b img"),
        ("deny", "container.mount-host", "docker run -v ~bob:/b img"),
        ("deny", "container.privileged", "docker run --privileged ubuntu"),
        ("deny", "container.privileged", "docker run --rm --privileged=true img"),
        ("deny", "container.privileged", "docker run --pid=host img"),
        ("deny", "container.privileged", "docker run --pid host img"),
        ("deny", "container.privileged", "podman run --privileged img"),
        ("deny", "container.privileged", "docker container create --privileged img"),
        ("deny", "container.privileged", "sudo docker run -it --pid=host --rm img sh"),
        ("ask", "run.container", "docker run --rm -v \"$PWD\":/app node npm test"),
        ("ask", "run.container", "docker run --rm -v $(pwd):/app -w /app node:20 npm test"),
        ("ask", "run.container", "docker run -v ./data:/data img"),
        ("ask", "run.container", "docker run -v /home/user/project:/app img"),
        ("ask", "run.container", "docker run -v ~/project:/app img"),
        ("ask", "run.container", "docker run -v myvol:/data img"),
        ("ask", "run.container", "docker run -v /tmp/x:/x img"),
        ("ask", "run.container", "docker run -v /etc/localtime:/etc/localtime:ro img"),
        ("ask", "run.container", "docker run --mount type=bind,source=/home/user/project,target=/app img"),
        ("ask", "run.container", "docker run --mount type=volume,source=data,target=/d img"),
        ("ask", "run.container", "docker run -v $(cat dir)/..:/x img"),
        ("ask", "run.container", "docker run -v $UNKNOWN:/x img"),
        ("ask", "run.container", "docker run -v \"$UNKNOWN/..\":/x img"),
        ("ask", "run.container", "docker run -v /data img"),
        ("ask", "run.container", "docker run -v ~/project/data:/d img"),
        ("ask", "run.container", "docker run -v /home/user/project/src:/src:ro img"),
        ("ask", "run.container", "docker run -v /usr/share/zoneinfo/UTC:/etc/localtime:ro img"),
        ("ask", "run.container", "docker run -v /tmp/.X11-unix:/tmp/.X11-unix img"),
        ("ask", "run.container", "docker run -e v=/:/h img"),
        ("ask", "run.container", "docker run --volumes-from web img"),
        ("ask", "run.container", "docker run -v ~/.ssh/id_ed25519.pub:/k.pub:ro img"),
        ("ask", "run.container", "docker run -v /mnt/data:/d img"),
        ("ask", "run.container", "docker run -v /opt/app/config:/c img"),
        ("ask", "run.container", "docker run --net=host img"),
        ("ask", "run.container", "docker run --network host img"),
        ("ask", "run.container", "docker run --pid=container:web img"),
        ("ask", "run.container", "docker run --privileged=false img"),
        ("allow", "container.query", "docker ps"),
        ("allow", "container.query", "docker volume ls"),
        ("ask", "run.container", "docker exec -it web sh"),
    ]);
}

/// Deleting main or master on a remote is Forbidden; other branches and pushes are not.
#[test]
#[rustfmt::skip]
fn the_remote_default_branch() {
    check(&[
        ("deny", "git.delete-default-branch", "git push origin --delete main"),
        ("deny", "git.delete-default-branch", "git push origin --delete master"),
        ("deny", "git.delete-default-branch", "git push -d origin main"),
        ("deny", "git.delete-default-branch", "git push --delete origin feature master"),
        ("deny", "git.delete-default-branch", "git push origin main --delete old"),
        ("deny", "git.delete-default-branch", "git push origin :main"),
        ("deny", "git.delete-default-branch", "git push origin :master"),
        ("deny", "git.delete-default-branch", "git push origin :refs/heads/main"),
        ("deny", "git.delete-default-branch", "git push origin :refs/heads/master"),
        ("deny", "git.delete-default-branch", "git -C repo push origin --delete main"),
        ("deny", "git.delete-default-branch", "sudo git push upstream -d refs/heads/master"),
        ("deny", "git.delete-default-branch", "bash -c 'git push origin --delete main'"),
        ("ask", "git.write", "git push origin main"),
        ("ask", "git.write", "git push origin feature"),
        ("ask", "git.write", "git push -u origin feature"),
        ("ask", "git.remote-delete", "git push origin --delete feature"),
        ("ask", "git.remote-delete", "git push -d origin old-branch"),
        ("ask", "git.remote-delete", "git push origin :feature"),
        ("ask", "git.write", "git push origin HEAD:main"),
        ("ask", "git.remote-delete", "git push origin --delete main-old"),
        ("ask", "git.write", "git push -n origin --delete main"),
        ("ask", "git.write", "git push --dry-run origin :main"),
        ("ask", "git.delete-refs", "git branch -d main"),
    ]);
}

/// Writing, shredding or formatting a disk is Forbidden; /dev/null and image files are not.
#[test]
#[rustfmt::skip]
fn block_devices() {
    check(&[
        ("deny", "disk.destroy", "dd if=/dev/zero of=/dev/sda"),
        ("deny", "disk.destroy", "dd bs=4M if=disk.img of=/dev/sdb status=progress"),
        ("deny", "disk.destroy", "sudo dd if=ubuntu.iso of=/dev/disk2 bs=1m"),
        ("deny", "disk.destroy", "dd if=/dev/urandom of=/dev/nvme0n1"),
        ("deny", "disk.destroy", "dd if=x of=/dev/mmcblk0"),
        ("deny", "path.protected-write", "echo x > /dev/sda"),
        ("deny", "path.protected-write", "cat disk.img > /dev/sdb"),
        ("deny", "path.protected-write", "cat disk.img > /dev/nvme0n1p1"),
        ("deny", "path.protected-write", "printf x > /dev/vda"),
        ("deny", "path.protected-write", "cat img > /dev/xvda"),
        ("deny", "path.protected-write", "echo x | sudo tee /dev/sdc"),
        ("deny", "path.protected-write", "cp disk.img /dev/sdb"),
        ("deny", "path.protected-write", "cat img > /dev/disk/by-id/usb-x"),
        ("deny", "disk.destroy", "shred /dev/sda"),
        ("deny", "disk.destroy", "shred -n 1 -z /dev/sdb"),
        ("deny", "disk.destroy", "sudo shred -v /dev/nvme0n1"),
        ("deny", "disk.destroy", "mkfs /dev/sdb1"),
        ("deny", "disk.destroy", "mkfs -t ext4 /dev/sdb1"),
        ("deny", "disk.destroy", "mkfs.ext4 /dev/sdb1"),
        ("deny", "disk.destroy", "mkfs.vfat -F 32 /dev/mmcblk0p1"),
        ("deny", "disk.destroy", "mkfs.exfat /dev/sdc1"),
        ("deny", "disk.destroy", "mkfs.xfs -f /dev/vdb"),
        ("deny", "disk.destroy", "mke2fs /dev/sdb1"),
        ("deny", "disk.destroy", "wipefs -a /dev/sda"),
        ("deny", "disk.destroy", "sudo wipefs --all /dev/nvme0n1"),
        ("ask", "fs.change", "dd if=/dev/zero of=./disk.img bs=1M count=10"),
        ("ask", "fs.change", "dd if=/dev/zero of=disk.img"),
        ("ask", "fs.change", "dd if=/dev/zero of=/dev/null count=1"),
        ("ask", "fs.change", "dd if=/dev/sda of=/dev/null bs=1M"),
        ("ask", "file.write", "cat /dev/sda > backup.img"),
        ("allow", "shell.builtins", "echo hi > /dev/null"),
        ("allow", "read.list", "ls > /dev/null 2>&1"),
        ("allow", "shell.builtins", "echo hi > /dev/stdout"),
        ("allow", "shell.builtins", "echo err > /dev/stderr"),
        ("allow", "shell.builtins", "echo hi > /dev/tty"),
        ("ask", "unknown.command", "mkfs.ext4 disk.img"),
        ("ask", "unknown.command", "wipefs disk.img"),
        ("ask", "fs.change", "shred notes.txt"),
        ("allow", "system.info", "lsblk"),
    ]);
}

/// Generating a key into ~/.ssh is Forbidden; fingerprints, lookups and keys in the project are not.
#[test]
#[rustfmt::skip]
fn ssh_keys() {
    check(&[
        ("deny", "ssh.keygen-overwrite", "ssh-keygen -f ~/.ssh/id_ed25519"),
        ("deny", "ssh.keygen-overwrite", "ssh-keygen -t ed25519 -f ~/.ssh/id_ed25519 -N ''"),
        ("deny", "ssh.keygen-overwrite", "ssh-keygen -t ed25519 -C me@example.com -f ~/.ssh/id_ed25519"),
        ("deny", "ssh.keygen-overwrite", "ssh-keygen -q -t rsa -b 4096 -f $HOME/.ssh/id_rsa -N ''"),
        ("deny", "ssh.keygen-overwrite", "ssh-keygen -f /home/user/.ssh/new_key -t ed25519"),
        ("deny", "ssh.keygen-overwrite", "ssh-keygen -qf ~/.ssh/id_rsa"),
        ("deny", "ssh.keygen-overwrite", "ssh-keygen -p -f ~/.ssh/id_rsa"),
        ("deny", "ssh.keygen-overwrite", "sudo ssh-keygen -t ed25519 -f /etc/ssh/ssh_host_ed25519_key"),
        ("allow", "cli.ssh-key-fingerprint", "ssh-keygen -l -f key.pub"),
        ("ask", "path.protected-named", "ssh-keygen -l -f ~/.ssh/id_ed25519.pub"),
        ("ask", "path.protected-named", "ssh-keygen -lf ~/.ssh/id_ed25519.pub"),
        ("ask", "unknown.command", "ssh-keygen -F github.com"),
        ("ask", "unknown.command", "ssh-keygen -R host"),
        ("ask", "unknown.command", "ssh-keygen -R host -f ~/.ssh/known_hosts"),
        ("ask", "unknown.command", "ssh-keygen -y -f ~/.ssh/id_ed25519"),
        ("ask", "unknown.command", "ssh-keygen -Y sign -f ~/.ssh/id_ed25519 -n file a.txt"),
        ("ask", "unknown.command", "ssh-keygen -t ed25519 -f ./deploy_key"),
        ("ask", "unknown.command", "ssh-keygen -t ed25519 -f deploy/key -N ''"),
        ("ask", "unknown.command", "ssh-keygen"),
    ]);
}
