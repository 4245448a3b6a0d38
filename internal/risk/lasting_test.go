package risk

import "testing"

// TestLastingIsSevere: deleting a namespace, a cluster, a database or a
// bucket, or destroying infrastructure, is severe as a force-push is, and
// still destructive; deleting one thing inside them, or a cluster on this
// machine, is not severe.
func TestLastingIsSevere(t *testing.T) {
	severe := []string{
		"git push -f origin main", // the yardstick
		"kubectl delete ns prod",
		"kubectl delete namespaces a b",
		"kubectl --context prod delete namespace/prod",
		"kubectl -n tools delete pods,ns old",
		"kubectl delete pods --all --all-namespaces",
		"kubectl delete deploy --all -A",
		"eksctl delete cluster --name prod",
		"gcloud container clusters delete prod --region us-east1",
		"az aks delete --name prod --resource-group rg",
		"dropdb prod",
		"psql -h db.internal -c 'DROP DATABASE prod'",
		"mysql -e 'drop schema app'",
		"mysqladmin -h db drop app",
		"gcloud sql instances delete prod",
		"aws rds delete-db-instance --db-instance-identifier prod",
		"aws s3 rb s3://assets --force",
		"aws s3api delete-bucket --bucket assets",
		"gsutil rm -r gs://assets",
		"gsutil -m rm -r gs://assets",
		"gsutil rb gs://assets",
		"gcloud storage rm --recursive gs://assets/",
		"gcloud storage buckets delete gs://assets",
		"az storage container delete --name assets",
		"az group delete -n rg --yes",
		"terraform destroy -auto-approve",
		"terraform apply -destroy",
		"tofu destroy",
		"pulumi destroy --yes",
		"cdk destroy",
	}
	for _, cmd := range severe {
		a := Command(cmd, TestContext)
		if !a.Classes.Any(KindSevere) {
			t.Errorf("Command(%q) = %v, want a severe class\n%s", cmd, a.Classes, findings(a))
		}
		if cmd != severe[0] && !a.Classes.Has(Destructive) {
			t.Errorf("Command(%q) = %v, want it still destructive", cmd, a.Classes)
		}
	}
	notSevere := []string{
		"kubectl delete pod web-1",
		"kubectl delete pods --all",
		"kubectl get ns",
		"kubectl delete ns prod --dry-run=client",
		"kind delete cluster",
		"minikube delete",
		"az aks nodepool delete --name np --cluster-name prod -g rg",
		"az sql server firewall-rule delete -n r -g rg -s srv",
		"psql -c 'DROP TABLE t'",
		"aws s3 rm s3://assets/key",
		"gsutil rm gs://assets/key",
		"gcloud storage rm gs://assets/key",
		"gcloud container clusters list",
		"terraform plan -destroy",
	}
	for _, cmd := range notSevere {
		if a := Command(cmd, TestContext); a.Classes.Any(KindSevere) {
			t.Errorf("Command(%q) = %v, want no severe class\n%s", cmd, a.Classes, findings(a))
		}
	}
}
